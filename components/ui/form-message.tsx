import type { FormState } from "@/lib/core/form-state";

/** The outcome of a submit, announced to screen readers. */
export function FormMessage({ state, id }: { state: FormState; id?: string }) {
  if (state.status === "idle") return null;
  return (
    <p
      id={id}
      role={state.status === "error" ? "alert" : "status"}
      className={`text-sm ${state.status === "error" ? "text-red-700" : "text-emerald-700"}`}
    >
      {state.message}
    </p>
  );
}
