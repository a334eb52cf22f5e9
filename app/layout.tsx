import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Coverdesk", template: "%s · Coverdesk" },
  description: "The agency's dashboard for linked insurance accounts.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so each gets the script nonce of its own response's
  // policy (proxy.ts); a page prerendered at build time would carry none and not run.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
