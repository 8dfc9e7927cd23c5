import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { TurnkeyProvider } from "@turnkey/react-wallet-kit";
import "@turnkey/react-wallet-kit/styles.css";
import { App } from "./App";
import { turnkeyConfig } from "./config";
import { recordError } from "./errors";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <TurnkeyProvider config={turnkeyConfig} callbacks={{ onError: recordError }}>
      <App />
    </TurnkeyProvider>
  </StrictMode>,
);
