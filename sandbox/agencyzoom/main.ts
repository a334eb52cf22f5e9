import { z } from "zod";
import { startAgencyZoomSandbox } from "./server";
import { DEMO_PASSWORD, DEMO_USERNAME } from "./seed";

// `npm run dev` starts this beside the service's sandbox (scripts/dev.mjs): the AgencyZoom
// stand-in on port 4020, where the app's development default AGENCYZOOM_BASE_URL points.
const env = z
  .object({
    SANDBOX_AGENCYZOOM_PORT: z.coerce.number().int().min(0).max(65535).default(4020),
    SANDBOX_HOST: z.string().default("127.0.0.1"),
    SANDBOX_AGENCYZOOM_USERNAME: z.string().min(1).default(DEMO_USERNAME),
    SANDBOX_AGENCYZOOM_PASSWORD: z.string().min(1).default(DEMO_PASSWORD),
    SANDBOX_AGENCYZOOM_TOKEN_SECONDS: z.coerce
      .number()
      .int()
      .min(1)
      .default(4 * 3600),
  })
  .parse(process.env);

startAgencyZoomSandbox({
  port: env.SANDBOX_AGENCYZOOM_PORT,
  host: env.SANDBOX_HOST,
  username: env.SANDBOX_AGENCYZOOM_USERNAME,
  password: env.SANDBOX_AGENCYZOOM_PASSWORD,
  tokenTtlSeconds: env.SANDBOX_AGENCYZOOM_TOKEN_SECONDS,
  log: (line) => console.log(line),
})
  .then((sandbox) => {
    console.log(
      `agencyzoom: serving AgencyZoom's API at ${sandbox.url}/v1/api (leads at ${sandbox.url}/_sandbox/leads)`,
    );
    const stop = () => void sandbox.close().then(() => process.exit(0));
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  })
  .catch((error: unknown) => {
    console.error(`agencyzoom: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
