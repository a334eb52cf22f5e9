export * from "./users";
export * from "./pulls";
export * from "./webhook-events";
