// The demo users (created because the e2e server runs in demo mode) and where each one's
// signed-in browser state is kept between tests.
export const DEMO_PASSWORD = "coverdesk-demo";

export const ROLES = {
  admin: { email: "admin@example.com", name: "Avery Admin" },
  manager: { email: "manager@example.com", name: "Morgan Manager" },
  agent: { email: "agent@example.com", name: "Alex Agent" },
} as const;

export type RoleName = keyof typeof ROLES;

export const storageStateOf = (role: RoleName) => `e2e/.auth/${role}.json`;
