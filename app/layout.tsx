import type { Metadata } from "next";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Coverdesk", template: "%s · Coverdesk" },
  description: "The agency's dashboard for linked insurance accounts.",
  // The files are in public/; proxy.ts serves them without a session.
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/site.webmanifest",
  robots: { index: false, follow: false },
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
