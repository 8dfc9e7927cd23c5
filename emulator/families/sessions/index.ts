/** What the sessions family offers the other families. */
export { issueCredentialBundle, issueLoginSession } from "./sessions.js";
