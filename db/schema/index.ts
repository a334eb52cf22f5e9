import "server-only";
export * from "./users";
export * from "./pull-stage";
export * from "./pulls";
export * from "./webhook-events";
export * from "./monitoring";
export * from "./sync-runs";
export * from "./workflow";
export * from "./security";
