import type { Config } from "tailwindcss";

// Coverdesk's design tokens, in one typed file. app/globals.css loads it with `@config`, and
// Tailwind turns each entry into a CSS variable and its utilities (`brand.700` becomes
// `--color-brand-700`, `bg-brand-700`, `text-brand-700`…). Add or change a token here, not in
// a component's class list; Tailwind's own scales (slate, red, spacing…) stay as they are.

export default {
  theme: {
    extend: {
      colors: {
        // The agency's blue: 50/100 for tinted backgrounds and focus rings, 600 for borders and
        // outlines, 700 for links and buttons, 900 for headings and hovered buttons.
        brand: {
          50: "#eef6ff",
          100: "#d9eaff",
          600: "#1f5fbf",
          700: "#184c99",
          900: "#0f2e5c",
        },
      },
      // The system's own fonts: nothing is downloaded, so no font request delays a page.
      fontFamily: {
        sans: [
          "-apple-system",
          "BlinkMacSystemFont",
          '"Segoe UI"',
          "Roboto",
          '"Helvetica Neue"',
          '"Noto Sans"',
          "Arial",
          "sans-serif",
          '"Apple Color Emoji"',
          '"Segoe UI Emoji"',
          '"Segoe UI Symbol"',
          '"Noto Color Emoji"',
        ],
        mono: [
          "ui-monospace",
          "SFMono-Regular",
          "Menlo",
          "Monaco",
          "Consolas",
          '"Liberation Mono"',
          '"Courier New"',
          "monospace",
        ],
      },
      // Corners: `rounded` for badges, `-md` for fields and buttons, `-lg` for panels, `-xl` for
      // the sign-in card.
      borderRadius: {
        sm: "0.25rem",
        md: "0.375rem",
        lg: "0.5rem",
        xl: "0.75rem",
      },
      // Spacing is Tailwind's 0.25rem step (`p-3` is 0.75rem); a named gap the layout needs
      // again and again would go here.
      spacing: {},
    },
  },
} satisfies Config;
