import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // `server-only` throws outside a React Server Component bundle; tests run on the server anyway.
      "server-only": fileURLToPath(new URL("./test/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", ".next/**", "e2e/**", ".data/**"],
    globalSetup: ["./test/global-setup.ts"],
    reporters: ["default", "./test/summary-reporter.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
