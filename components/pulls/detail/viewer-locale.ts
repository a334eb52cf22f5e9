import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { localeFromAcceptLanguage } from "@/lib/format";

/** The locale the viewer's browser asks for, read once per request. */
export const viewerLocale = cache(async (): Promise<string> =>
  localeFromAcceptLanguage((await headers()).get("accept-language")),
);
