import type { Metadata, Viewport } from "next";
import { cookies, headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Parley", template: "%s · Parley" },
  description: "Team chat with language models whose tool calls people can trust.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Theme: "light" or "dark" from the cookie; otherwise follow the system (a tiny script before paint).
const systemTheme = `if(!document.documentElement.dataset.theme&&matchMedia("(prefers-color-scheme: dark)").matches)document.documentElement.classList.add("dark")`;

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const theme = (await cookies()).get("parley_theme")?.value;
  const fixed = theme === "light" || theme === "dark" ? theme : undefined;
  // The Content-Security-Policy's nonce for this request (proxy.ts): inline scripts run only with it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" className={fixed === "dark" ? "dark" : undefined} data-theme={fixed} suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: systemTheme }} />
      </head>
      <body className="min-h-dvh">{children}</body>
    </html>
  );
}
