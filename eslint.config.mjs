import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The rooms of the house (the architecture's Rooms table): which folder may import which. Paths
// are resolved (the `@/` alias and relative paths alike), so a zone cannot be walked around by
// spelling an import differently. Tests are left out: they drive routes, the sandbox and the
// database from outside, as the app's users and the service do.
const ROOMS_FILES = ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/**/*.ts", "db/**/*.ts", "sandbox/**/*.ts"];
const TESTS = ["**/*.test.ts", "**/*.test.tsx"];
const OUTSIDE_THE_APP = ["./bench", "./e2e", "./scripts", "./test"];
const DATABASE_DRIVERS = [
  "./node_modules/drizzle-orm",
  "./node_modules/postgres",
  "./node_modules/@electric-sql/pglite",
];

const ROOMS = [
  {
    target: "./lib/service",
    from: "./lib",
    except: ["./service", "./env.ts"],
    message: "lib/service (the data-link service) imports nothing of ours but lib/env.",
  },
  {
    target: "./lib/service",
    from: ["./app", "./components", "./db", "./sandbox", ...OUTSIDE_THE_APP],
    message: "lib/service (the data-link service) imports nothing of ours but lib/env.",
  },
  {
    target: "./lib",
    from: ["./app", "./components"],
    message: "lib/ serves routes and components; it never imports them.",
  },
  {
    target: "./db",
    from: ["./lib", "./app", "./components"],
    message: "db/ takes its settings as arguments and imports none of the app's modules.",
  },
  {
    target: "./components",
    from: "./app",
    message: "Components take what they need as props; routes and server actions live in app/.",
  },
  {
    target: "./components",
    from: DATABASE_DRIVERS,
    message: "Components never reach the database; a page asks lib/ and passes the result down.",
  },
  {
    target: "./app",
    from: [...DATABASE_DRIVERS, "./db/schema", "./db/connect.ts"],
    message: "Routes stay thin: queries live in lib/ (getDb comes from lib/database).",
  },
  {
    target: ["./app", "./components", "./lib", "./db"],
    from: "./sandbox",
    message: "The app talks to the sandbox over HTTP only, as it would to the real service.",
  },
  {
    target: "./sandbox",
    from: "./lib",
    except: ["./service/schemas"],
    message: "The sandbox imports only its own files and lib/service/schemas.",
  },
  {
    target: "./sandbox",
    from: ["./app", "./components", "./db", ...OUTSIDE_THE_APP],
    message: "The sandbox imports only its own files and lib/service/schemas.",
  },
];

// The floors inside lib/ (lib/README.md): an import goes down, never up. The base imports no
// domain; a domain imports the base and other domains (never in a circle: test/import-cycles.test.ts
// checks that between folders), never a composition; compositions import anything below them.
const BASE = [
  "core",
  "audit",
  "auth",
  "security",
  "service",
  "url",
  "csv",
  "replicas",
  "env.ts",
  "format.ts",
  "database.ts",
];
const COMPOSITIONS = ["loaders", "ingest", "jobs", "demo", "startup.ts"];
// Every lib/ folder that is neither base nor composition is a domain, so a new folder is one at once.
const NOT_A_COMPOSITION = `./lib/!(${COMPOSITIONS.filter((name) => !name.endsWith(".ts")).join("|")})/**`;

const FLOORS = [
  {
    target: BASE.map((name) => `./lib/${name}`),
    from: "./lib",
    except: BASE.map((name) => `./${name}`),
    message:
      "The base of lib/ (core, audit, auth, security, service, url, csv, replicas, env, format, database) imports no domain or composition.",
  },
  {
    target: NOT_A_COMPOSITION,
    from: COMPOSITIONS.map((name) => `./lib/${name}`),
    message:
      "A domain never imports a composition (loaders, ingest, jobs, demo, startup): a domain that needs one is asking for a loader or a job.",
  },
];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      ".data/**",
      "drizzle/**",
      "playwright-report/**",
      "test-results/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Non-null assertions hide missing input at exactly the places where input enters.
      "@typescript-eslint/no-non-null-assertion": "error",
      "@typescript-eslint/ban-ts-comment": "error",
    },
  },
  {
    files: ROOMS_FILES,
    ignores: TESTS,
    rules: {
      "import/no-restricted-paths": ["error", { zones: [...ROOMS, ...FLOORS] }],
    },
  },
  {
    // Every environment variable is parsed once, in lib/env.ts; db/ takes its settings as
    // arguments. (The sandbox is another program, with settings of its own.)
    files: ROOMS_FILES.filter((glob) => !glob.startsWith("sandbox/")),
    ignores: [...TESTS, "lib/env.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message: "Read settings from lib/env.ts (env()), the one module that reads process.env.",
        },
      ],
    },
  },
  {
    // A component may name the shape of a row (a type, erased from the bundle), never load db/.
    files: ["components/**/*.{ts,tsx}"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/|(\\.\\./)+)db(/|$)",
              allowTypeImports: true,
              message:
                "Components never reach the database; a page asks lib/ and passes the result down (type-only imports are fine).",
            },
          ],
        },
      ],
    },
  },
];

export default config;
