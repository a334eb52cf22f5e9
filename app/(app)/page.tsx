import { redirect } from "next/navigation";
import { startPage } from "@/lib/loaders/login";
import { requireUser } from "@/lib/auth/session";

// Agents start from their own pulls; managers and admins from the whole book.
export default async function Home() {
  redirect(startPage(await requireUser()));
}
