import { permanentRedirect } from "next/navigation";

// GET /admin/alerts — where the alert rules lived before they joined the agency's rules page.
export default function AlertRulesMoved() {
  permanentRedirect("/admin/rules");
}
