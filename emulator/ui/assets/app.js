/**
 * The emulator UI's shell: the tab bar, a hash router (#tab/argument), the header (instance
 * and emulated clock) and live updates: a server-sent event stream from
 * /emulator/v1/changes tells when the state moved, and the open tab refreshes its data.
 */
import { get, url } from "./lib/api.js";
import { errorNotice, fill, h } from "./lib/dom.js";
import organizations from "./tabs/organizations.js";
import wallets from "./tabs/wallets.js";
import activities from "./tabs/activities.js";
import policies from "./tabs/policies.js";
import mailbox from "./tabs/mailbox.js";
import requests from "./tabs/requests.js";
import clock from "./tabs/clock.js";
import snapshots from "./tabs/snapshots.js";
import webhooks from "./tabs/webhooks.js";

/**
 * @typedef {{ refresh(): Promise<void>, update?(arg: string | undefined): void }} View
 * @typedef {{ id: string, title: string, mount(root: HTMLElement, ctx: Ctx, arg: string | undefined): View }} Tab
 * @typedef {{ info: any, orgId: string | undefined, organizations(): Promise<any[]>, go(hash: string): void }} Ctx
 */

/** @type {Tab[]} */
const TABS = [organizations, wallets, activities, policies, mailbox, webhooks, requests, clock, snapshots];

const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const nav = /** @type {HTMLElement} */ (document.getElementById("tabs"));
const liveEl = /** @type {HTMLElement} */ (document.getElementById("live"));
const clockEl = /** @type {HTMLElement} */ (document.getElementById("clock"));

let treeCache = /** @type {{ version: string, tree: Promise<any[]> } | null} */ (null);
let version = "";

/** @type {Ctx} */
const ctx = {
  info: null,
  orgId: undefined,
  organizations() {
    if (!treeCache || treeCache.version !== version) treeCache = { version, tree: get("/organizations").then((r) => r.organizations) };
    return treeCache.tree;
  },
  go(hash) {
    if (location.hash !== hash) location.hash = hash;
  },
};

/** @type {{ tab: Tab, view: View } | null} */
let current = null;

function route() {
  const [id, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const tab = TABS.find((t) => t.id === id) ?? TABS[0];
  const arg = rest.length ? decodeURIComponent(rest.join("/")) : undefined;
  for (const a of nav.querySelectorAll("a")) a.classList.toggle("active", a.dataset.tab === tab.id);
  document.title = `${tab.title} · Turnkey emulator`;
  if (current?.tab === tab && current.view.update) {
    current.view.update(arg);
    return;
  }
  const root = h("section", { class: `tab tab-${tab.id}` });
  fill(main, root);
  try {
    current = { tab, view: tab.mount(root, ctx, arg) };
    void refreshView();
  } catch (err) {
    fill(main, errorNotice(err));
  }
}

let refreshing = /** @type {Promise<void> | null} */ (null);
let again = false;

/** Refreshes the open tab; a change arriving meanwhile runs one more refresh after it. */
async function refreshView() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      try {
        await current?.view.refresh();
      } catch (err) {
        console.error(err);
      }
    } while (again);
  })();
  try {
    await refreshing;
  } finally {
    refreshing = null;
  }
}

async function refreshClock() {
  try {
    const c = await get("/clock");
    clockEl.textContent = `${c.iso}${c.offsetMs ? ` (offset ${Math.round(c.offsetMs / 1000)} s)` : ""}`;
  } catch {
    clockEl.textContent = "";
  }
}

/** @param {string} v */
function onVersion(v) {
  if (v === version) return;
  const first = version === "";
  version = v;
  void refreshClock();
  if (!first) void refreshView();
}

function connectLive() {
  if (typeof EventSource === "undefined") return poll();
  const es = new EventSource(url("/changes"));
  es.addEventListener("open", () => {
    liveEl.textContent = "● live";
    liveEl.classList.add("on");
  });
  es.addEventListener("change", (e) => onVersion(JSON.parse(/** @type {MessageEvent} */ (e).data).version));
  es.addEventListener("error", () => {
    liveEl.textContent = "○ reconnecting";
    liveEl.classList.remove("on");
  });
}

/** Without EventSource: ask for the version every second. */
function poll() {
  liveEl.textContent = "● polling";
  setInterval(async () => {
    try {
      onVersion((await get("/changes")).version);
    } catch {
      /* the emulator is gone or restarting: keep trying */
    }
  }, 1000);
}

async function start() {
  fill(nav, TABS.map((t) => h("a", { href: `#${t.id}`, dataset: { tab: t.id }, text: t.title })));
  addEventListener("hashchange", route);
  route();
  connectLive();
  try {
    ctx.info = await get("/info");
    const inst = /** @type {HTMLElement} */ (document.getElementById("instance"));
    inst.textContent = `${ctx.info.baseUrl} · ${ctx.info.organizationName}`;
    inst.title = `organization ${ctx.info.organizationId}`;
    void refreshView(); // tabs that read the instance's info (the chains for balances) draw again
  } catch (err) {
    main.prepend(errorNotice(err));
  }
}

void start();
