import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema and committed; the app applies them at start.
// `npm run db:generate` runs drizzle-kit under the react-server condition: the schema modules
// start with `import "server-only"`, which throws under any other.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
});
