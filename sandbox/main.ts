import { z } from "zod";
import { parseRateLimitSetting } from "./rate-limit";
import { startSandbox } from "./server";
import { ALL_EVENT_TYPES } from "./webhook-registry";

// `npm run sandbox` (and `npm run dev`, which starts it beside the app). Reads SANDBOX_*.
// SANDBOX_WEBHOOK_URL is the webhook the team set up on the service's dashboard, signed with
// SANDBOX_WEBHOOK_SECRET (random when unset) and, as an agency would switch them on, for every
// event type unless SANDBOX_WEBHOOK_EVENT_TYPES names fewer.
const envSchema = z.object({
  SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** The storage server that serves signed download links; the port after SANDBOX_PORT when unset. */
  SANDBOX_STORAGE_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  SANDBOX_HOST: z.string().default("127.0.0.1"),
  SANDBOX_CLIENT_ID: z.string().min(1).default("coverdesk-dev-client"),
  SANDBOX_CLIENT_SECRET: z.string().min(1).default("coverdesk-dev-secret"),
  SANDBOX_TEAM_ID: z.string().min(1).default("5f0c3c55-6d2a-4c8e-9a55-2d8f1b7c9e01"),
  SANDBOX_WEBHOOK_URL: z.string().default("http://localhost:3000/api/webhooks/service"),
  SANDBOX_WEBHOOK_SECRET: z.string().optional(),
  SANDBOX_WEBHOOK_EVENT_TYPES: z
    .string()
    .default("all")
    .transform((v) => (v === "all" ? [...ALL_EVENT_TYPES] : v.split(",").map((t) => t.trim())))
    .pipe(z.array(z.enum(ALL_EVENT_TYPES)).min(1)),
  SANDBOX_SIGNATURE_HEADER: z.string().default("canopy-signature"),
  SANDBOX_SEED: z.coerce.number().int().default(42),
  SANDBOX_PULL_COUNT: z.coerce.number().int().min(1).max(100_000).default(36),
  SANDBOX_SPEED: z.coerce.number().positive().default(0.02),
  SANDBOX_DELIVER_ON_START: z.enum(["true", "false"]).default("true"),
  /** `60/min`: team routes answer 429 with Retry-After past that many requests a minute. */
  SANDBOX_RATE_LIMIT: z
    .string()
    .default("off")
    .transform((text, ctx) => {
      const limit = parseRateLimitSetting(text);
      if (limit !== "invalid") return limit;
      ctx.addIssue({ code: "custom", message: "use requests per minute, e.g. 60/min, or off" });
      return z.NEVER;
    }),
});

const parsed = envSchema.safeParse(process.env);
if (!parsed.success) {
  console.error(
    `sandbox: invalid configuration\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
  );
  process.exit(1);
}
const env = parsed.data;

async function main(): Promise<void> {
  const sandbox = await startSandbox({
    port: env.SANDBOX_PORT,
    storagePort: env.SANDBOX_STORAGE_PORT ?? (env.SANDBOX_PORT === 0 ? 0 : env.SANDBOX_PORT + 1),
    host: env.SANDBOX_HOST,
    clientId: env.SANDBOX_CLIENT_ID,
    clientSecret: env.SANDBOX_CLIENT_SECRET,
    teamId: env.SANDBOX_TEAM_ID,
    webhookUrl: env.SANDBOX_WEBHOOK_URL === "none" ? null : env.SANDBOX_WEBHOOK_URL,
    webhookSecret: env.SANDBOX_WEBHOOK_SECRET || null,
    webhookEventTypes: env.SANDBOX_WEBHOOK_EVENT_TYPES,
    signatureHeader: env.SANDBOX_SIGNATURE_HEADER,
    seed: env.SANDBOX_SEED,
    pullCount: env.SANDBOX_PULL_COUNT,
    speed: env.SANDBOX_SPEED,
    deliverOnStart: env.SANDBOX_DELIVER_ON_START === "true",
    rateLimit: env.SANDBOX_RATE_LIMIT,
    log: (line) => console.log(line),
  });
  console.log(
    `sandbox: serving ${sandbox.state.pulls.size} pulls at ${sandbox.baseUrl} (control API at ${sandbox.url}/_sandbox, signed download links at ${sandbox.storageUrl})`,
  );

  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`sandbox: could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
