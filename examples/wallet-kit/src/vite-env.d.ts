/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TURNKEY_API_BASE_URL?: string;
  readonly VITE_TURNKEY_AUTH_PROXY_URL?: string;
  readonly VITE_TURNKEY_AUTH_PROXY_CONFIG_ID?: string;
  readonly VITE_TURNKEY_ORGANIZATION_ID?: string;
}
