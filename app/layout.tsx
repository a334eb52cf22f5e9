import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Coverdesk", template: "%s · Coverdesk" },
  description: "The agency's dashboard for linked insurance accounts.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
