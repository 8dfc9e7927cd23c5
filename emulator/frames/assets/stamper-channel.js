// @ts-check
/**
 * The parent side of @turnkey/iframe-stamper's protocol, shared by the export and import frames:
 * wait for the MessageChannel the parent hands over in TURNKEY_INIT_MESSAGE_CHANNEL, answer each
 * {type, requestId, value} request on it (APPLY_SETTINGS here, the rest by the frame's handlers,
 * a throw as ERROR), then announce PUBLIC_KEY_READY.
 */

const STYLE_KEYS = ["fontSize", "fontFamily", "color", "backgroundColor", "padding", "margin", "width", "height", "borderStyle", "borderWidth", "borderColor", "borderRadius", "overflowWrap", "wordWrap", "resize", "textAlign"];

/** @typedef {{ setProperty(name: string, value: string): void }} Style */
/** @typedef {(data: any) => Promise<[string, unknown]> | [string, unknown]} Handler */

/**
 * @param {{ name: string, style: Style, handlers: Record<string, Handler>, publicKey: () => Promise<string> | string }} frame
 *   name for error messages; style the element APPLY_SETTINGS styles; handlers per request type, each
 *   returning its reply's [type, value]; publicKey the value PUBLIC_KEY_READY carries
 */
export function serveStamperChannel(frame) {
  globalThis.addEventListener("message", async (event) => {
    if (event.data?.type !== "TURNKEY_INIT_MESSAGE_CHANNEL" || !event.ports[0]) return;
    const port = event.ports[0];
    port.onmessage = async (message) => {
      const { type, requestId } = message.data ?? {};
      /** @param {string} replyType @param {unknown} value */
      const reply = (replyType, value) => port.postMessage({ type: replyType, value, requestId });
      try {
        if (type === "APPLY_SETTINGS") {
          const styles = JSON.parse(message.data.value ?? "{}").styles ?? {};
          for (const name of STYLE_KEYS) if (typeof styles[name] === "string") frame.style.setProperty(name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), styles[name]);
          return reply("SETTINGS_APPLIED", true);
        }
        const handler = Object.hasOwn(frame.handlers, type) ? frame.handlers[type] : undefined;
        if (!handler) return reply("ERROR", `${type} is not supported by the emulator's ${frame.name} frame`);
        const [replyType, value] = await handler(message.data);
        return reply(replyType, value);
      } catch (error) {
        reply("ERROR", error instanceof Error ? error.message : String(error));
      }
    };
    port.postMessage({ type: "PUBLIC_KEY_READY", value: await frame.publicKey() });
  });
}
