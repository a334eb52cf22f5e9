// POST /api/local/commands — runs a named command of the command line against the embedded database this development server holds
// Public to the proxy (no session: the caller is a script), guarded here: development and test
// only, on PGlite only, loopback connections only, and the token of .data/local-commands.json.
import { answerLocalCommand } from "@/lib/local-commands/route";

export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return answerLocalCommand(request);
}
