/**
 * One page over the wallet kit: log in or sign up (the kit's own modal: email or SMS OTP,
 * passkey, wallet, Google), then the signed-in user's wallets, creating one, signing a message
 * with its Ethereum account, refreshing the session, exporting and importing a wallet, logging out. Values a
 * test reads carry data-testid attributes.
 */
import { useState } from "react";
import { AuthState, useTurnkey, type Wallet, type WalletAccount } from "@turnkey/react-wallet-kit";
import { recordError, useErrors } from "./errors";

const MESSAGE = "Hello from a browser, signed by the emulator";

function firstEthereumAccount(wallets: Wallet[]): WalletAccount | undefined {
  for (const wallet of wallets) {
    const account = wallet.accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
    if (account) return account;
  }
  return undefined;
}

export function App() {
  const { clientState, authState, session, user, wallets, handleLogin, createWallet, signMessage, refreshSession, handleExportWallet, handleImportWallet, logout } =
    useTurnkey();
  const errors = useErrors();
  const [busy, setBusy] = useState<string>();
  const [signed, setSigned] = useState<{ address: string; message: string; r: string; s: string; v: string; count: number }>();

  const run = (name: string, action: () => Promise<unknown>) => async () => {
    setBusy(name);
    try {
      await action();
    } catch (error) {
      recordError(error);
    } finally {
      setBusy(undefined);
    }
  };

  const account = firstEthereumAccount(wallets);
  const signedIn = authState === AuthState.Authenticated;

  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 720, margin: "2rem auto" }}>
      <h1>Wallet kit against the emulator</h1>
      <p>
        client <span data-testid="client-state">{clientState ?? "loading"}</span>, auth <span data-testid="auth-state">{authState}</span>
        {busy && <span data-testid="busy"> — {busy}…</span>}
      </p>

      {!signedIn && (
        <button data-testid="login" disabled={clientState !== "ready"} onClick={run("login", () => handleLogin())}>
          Log in or sign up
        </button>
      )}

      {signedIn && (
        <>
          <dl>
            <dt>User</dt>
            <dd data-testid="user-id">{user?.userId ?? session?.userId}</dd>
            <dt>Email</dt>
            <dd data-testid="user-email">{user?.userEmail ?? ""}</dd>
            <dt>Organization</dt>
            <dd data-testid="organization-id">{session?.organizationId}</dd>
            <dt>Session key</dt>
            <dd data-testid="session-public-key">{session?.publicKey}</dd>
            <dt>Session expires</dt>
            <dd data-testid="session-expiry">{session?.expiry}</dd>
          </dl>

          <h2>Wallets</h2>
          <ul data-testid="wallets">
            {wallets.map((w) => (
              <li key={w.walletId} data-testid="wallet" data-wallet-id={w.walletId}>
                {w.walletName}
                <ul>
                  {w.accounts.map((a) => (
                    <li key={a.walletAccountId} data-testid="account" data-address={a.address} data-format={a.addressFormat}>
                      {a.addressFormat}: {a.address}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
          <button
            data-testid="create-wallet"
            onClick={run("create wallet", () => createWallet({ walletName: `Browser wallet ${wallets.length + 1}`, accounts: ["ADDRESS_FORMAT_ETHEREUM"] }))}
          >
            Create wallet
          </button>
          <button
            data-testid="sign-message"
            disabled={!account}
            onClick={run("sign message", async () => {
              // Numbered, so that each signature differs (ECDSA here is deterministic).
              const count = (signed?.count ?? 0) + 1;
              const message = `${MESSAGE} (#${count})`;
              const result = await signMessage({ message, walletAccount: account!, addEthereumPrefix: true });
              setSigned({ address: account!.address, message, r: result.r, s: result.s, v: result.v, count });
            })}
          >
            Sign a message
          </button>
          {signed && <pre data-testid="signature">{JSON.stringify(signed)}</pre>}
          <button data-testid="refresh-session" onClick={run("refresh session", () => refreshSession())}>
            Refresh session
          </button>
          <button
            data-testid="export-wallet"
            disabled={wallets.length === 0}
            onClick={run("export wallet", () => handleExportWallet({ walletId: wallets[0]!.walletId }))}
          >
            Export first wallet
          </button>
          <button
            data-testid="import-wallet"
            onClick={run("import wallet", () => handleImportWallet({ defaultWalletAccounts: ["ADDRESS_FORMAT_ETHEREUM"] }))}
          >
            Import a wallet
          </button>
          <button data-testid="logout" onClick={run("log out", () => logout())}>
            Log out
          </button>
        </>
      )}

      {errors.length > 0 && (
        <ol data-testid="errors" style={{ color: "crimson" }}>
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ol>
      )}
    </main>
  );
}
