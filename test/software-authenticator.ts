import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

// A passkey made in software, for tests: an EC P-256 key pair and a signature counter, answering
// the server's options as a browser and an authenticator would (attestation "none"), so the
// server's checks run for real on what it gets. The few CBOR shapes an answer needs are
// encoded here (RFC 8949: unsigned and negative integers, byte and text strings, maps).

const b64url = (bytes: Uint8Array | Buffer | string): string => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts = [head(5, value.size)];
  for (const [key, item] of value) parts.push(encodeCbor(key), encodeCbor(item));
  return Buffer.concat(parts);
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

export type SoftwarePasskey = {
  credentialId: string;
  /** The signature counter the next answer carries (set it back to replay an old value). */
  counter: number;
  /** Answers registration options (from generateRegistrationOptions) as the browser would. */
  register(options: { challenge: string }, origin: string, rpId?: string): string;
  /** Answers sign-in options as the browser would; the counter goes up first unless it is kept at 0. */
  signIn(options: { challenge: string }, origin: string, rpId?: string): string;
};

/** A new passkey; `counting` false: an authenticator that keeps no counter (always 0). */
export function softwarePasskey(
  rpIdDefault: string,
  options: { counting?: boolean; key?: KeyObject } = {},
): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signingKey = options.key ?? privateKey;
  const jwk = publicKey.export({ format: "jwk" });
  const coseKey = new Map<number, Cbor>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x ?? "", "base64url")],
    [-3, Buffer.from(jwk.y ?? "", "base64url")],
  ]);
  const rawId = randomBytes(16);
  const counterBytes = (n: number) => {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(n);
    return out;
  };
  const passkey: SoftwarePasskey = {
    credentialId: b64url(rawId),
    counter: 0,
    register({ challenge }, origin, rpId = rpIdDefault) {
      const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge, origin, crossOrigin: false });
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_DATA]),
        counterBytes(passkey.counter),
        Buffer.alloc(16), // AAGUID: none
        idLength,
        rawId,
        encodeCbor(coseKey),
      ]);
      const attestationObject = encodeCbor(
        new Map<string, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return JSON.stringify({
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          attestationObject: b64url(attestationObject),
          transports: ["internal", "hybrid"],
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      });
    },
    signIn({ challenge }, origin, rpId = rpIdDefault) {
      if (options.counting !== false) passkey.counter += 1;
      const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false });
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([FLAG_USER_PRESENT | FLAG_USER_VERIFIED]),
        counterBytes(passkey.counter),
      ]);
      const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), signingKey);
      return JSON.stringify({
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
      });
    },
  };
  return passkey;
}
