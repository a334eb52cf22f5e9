import { defineConfig } from "drizzle-kit";

// Migrations are generated from db/schema and committed; the app applies them at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
});
