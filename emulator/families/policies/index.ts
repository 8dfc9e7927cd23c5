/** What the policies family offers the other families. */
export { renderPolicy } from "./views.js";
