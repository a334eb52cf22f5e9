import { describe, expect, it } from "vitest";
import { ForeignDownloadUrlError, serviceRouteOf } from "./downloads-api";

// A file's download_url is asked with our credentials, so it must be a route of the configured
// service: the same origin and base path, bare or under our own team. Anything else is refused
// before any call.

const config = { baseUrl: "https://api.service.example/api/v1.0.0", teamId: "team-1" };
const FILE = "/pulls/p-1/answers/a-1/files/f-1";

describe("serviceRouteOf", () => {
  it("reads the route of a download_url under the configured base, with or without our team", () => {
    expect(serviceRouteOf(config, `https://api.service.example/api/v1.0.0/teams/team-1${FILE}`)).toEqual({
      path: FILE,
      query: {},
    });
    expect(serviceRouteOf(config, `https://API.service.example:443/api/v1.0.0${FILE}?inline=1`)).toEqual({
      path: FILE,
      query: { inline: "1" },
    });
  });

  it("takes this machine's names for one another, as a local service writes its own address", () => {
    const local = { baseUrl: "http://localhost:4010/api/v1.0.0", teamId: "team-1" };
    expect(serviceRouteOf(local, `http://127.0.0.1:4010/api/v1.0.0/teams/team-1${FILE}`).path).toBe(FILE);
    expect(serviceRouteOf(local, `http://[::1]:4010/api/v1.0.0${FILE}`).path).toBe(FILE);
    for (const address of [
      `http://127.0.0.1:4011/api/v1.0.0${FILE}`,
      `https://127.0.0.1:4010/api/v1.0.0${FILE}`,
      `http://127.0.0.2:4010/api/v1.0.0${FILE}`,
      `http://10.0.0.1:4010/api/v1.0.0${FILE}`,
    ])
      expect(() => serviceRouteOf(local, address), address).toThrow(ForeignDownloadUrlError);
  });

  it("refuses any other host, scheme, port, base path or team, and addresses with credentials", () => {
    for (const address of [
      `https://files.elsewhere.example/api/v1.0.0${FILE}`,
      `http://api.service.example/api/v1.0.0${FILE}`,
      `https://api.service.example:8443/api/v1.0.0${FILE}`,
      `https://api.service.example/api/v2.0.0${FILE}`,
      `https://api.service.example/api/v1.0.0.evil${FILE}`,
      `https://api.service.example/api/v1.0.0/../../admin${FILE}`,
      `https://api.service.example/api/v1.0.0/teams/team-2${FILE}`,
      `https://user:pass@api.service.example/api/v1.0.0${FILE}`,
      `https://api.service.example.evil.example/api/v1.0.0${FILE}`,
      "/api/v1.0.0/pulls/p-1/documents/d-1",
      "not a url",
    ])
      expect(() => serviceRouteOf(config, address), address).toThrow(ForeignDownloadUrlError);
    expect(() =>
      serviceRouteOf({ ...config, teamId: null }, `https://api.service.example/api/v1.0.0/teams/team-1${FILE}`),
    ).toThrow(/another team/);
  });
});
