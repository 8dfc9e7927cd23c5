/**
 * The example app's Vite configuration: React's JSX through esbuild (no React plugin needed)
 * and the one emulator line, which makes @turnkey/crypto trust the enclave keys of an emulator
 * started with the same fixture. `vite` (dev) and `vite build --mode development` act on it; a
 * plain production build keeps the production keys.
 */
import { defineConfig } from "vite";
import turnkeyEmulatorTrust from "turnkey-emulator/vite";

export default defineConfig({
  plugins: [turnkeyEmulatorTrust({ fixture: "embedded-wallet-app" })],
  esbuild: { jsx: "automatic" },
  server: { host: "localhost", port: 5173, strictPort: true },
});
