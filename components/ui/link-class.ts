// The look of a text link in the app (a name that opens its pull, "Download CSV", "Clear"):
// the brand's colour, underlined on hover. A link that acts as a button takes `buttonClass()`.
export const LINK_CLASS = "text-brand-700 hover:underline";
