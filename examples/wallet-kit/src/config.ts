/**
 * The provider configuration: the emulator's URLs, the auth-proxy configuration id and the app
 * organization, from the VITE_TURNKEY_* variables (.env holds the emulator's defaults; set them
 * in the environment or a .env.local to point elsewhere). Nothing else differs from an app
 * talking to the real service, except that wallet export and import load the emulator's frames
 * (GET /emulator/frames/export and /import) instead of export.turnkey.com and import.turnkey.com,
 * whose pages trust only the production enclave keys and are not reachable offline anyway.
 */
import type { TurnkeyProviderConfig } from "@turnkey/react-wallet-kit";

function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} is not set: see examples/wallet-kit/.env`);
  return value;
}

const apiBaseUrl = required("VITE_TURNKEY_API_BASE_URL", import.meta.env.VITE_TURNKEY_API_BASE_URL);

export const turnkeyConfig: TurnkeyProviderConfig = {
  apiBaseUrl,
  authProxyUrl: required("VITE_TURNKEY_AUTH_PROXY_URL", import.meta.env.VITE_TURNKEY_AUTH_PROXY_URL),
  authProxyConfigId: required("VITE_TURNKEY_AUTH_PROXY_CONFIG_ID", import.meta.env.VITE_TURNKEY_AUTH_PROXY_CONFIG_ID),
  organizationId: required("VITE_TURNKEY_ORGANIZATION_ID", import.meta.env.VITE_TURNKEY_ORGANIZATION_ID),
  exportIframeUrl: new URL("/emulator/frames/export", apiBaseUrl).href,
  importIframeUrl: new URL("/emulator/frames/import", apiBaseUrl).href,
};
