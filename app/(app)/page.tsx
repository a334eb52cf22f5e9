import { redirect } from "next/navigation";
import { requireUser } from "@/lib/auth/session";

// Agents start from their own pulls; managers and admins from the whole book.
export default async function Home() {
  const user = await requireUser();
  redirect(user.role === "AGENT" ? "/my" : "/pulls");
}
