// What a list says when nothing matches or nothing is there yet: a dashed box with the reason
// and, often, the way out ("Clear the filters"). A class, not a component: the boxes are a `p`
// or a `div` with their own test ids and roles.
export const EMPTY_STATE_CLASS =
  "rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600";
