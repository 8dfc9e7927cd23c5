/** `GET /emulator/v1/clock` reads the emulated time; `POST` sets or advances it. */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import { clockView, moveClock } from "./clock.js";
import { handle, jsonOf, readBody } from "../../core/http/control-routes.js";

export function clockRouter(rt: Runtime): Router {
  const router = Router();
  router.get("/emulator/v1/clock", (_req, res) => {
    res.json(clockView(rt.clock));
  });
  router.post(
    "/emulator/v1/clock",
    readBody,
    handle(async (req, res) => {
      const view = moveClock(rt.clock, jsonOf(req));
      rt.events.emit({ type: "CLOCK_MOVED" }); // e.g. webhook retries waiting on the emulated clock
      await rt.hooks.clockMoved(rt); // e.g. local EVM chains mine a block at the new time
      res.json(view);
    }),
  );
  return router;
}
