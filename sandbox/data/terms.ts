// The terms of service the SDK flow shows before consent (GET /tos); the consent bodies send
// this version back. An integer, as the service publishes it. HTML because the service serves
// it ready to render.

export const TERMS_VERSION = 2;

export const TERMS_HTML = [
  "<h1>Sandbox Data-Link Terms of Service</h1>",
  `<p>Version ${TERMS_VERSION}. By linking an insurance account you authorize the sandbox to sign in to the account on your behalf and retrieve policy, driver, vehicle, property, claims and document information, and to share it with the business that sent you this link.</p>`,
  "<p>You may revoke this authorization at any time by contacting that business. Your login credentials are used only to retrieve your data and are never shown to the business.</p>",
  "<p>This is a sandbox: no real account is accessed and every record is generated test data.</p>",
].join("\n");
