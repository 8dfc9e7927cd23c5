import { describe, expect, it } from "vitest";
import express from "express";
import request from "supertest";
import { underPath } from "./path-scope.js";

describe("underPath", () => {
  const app = () => {
    const entered: string[] = [];
    const a = express();
    a.use(
      underPath("/emulator/ui", (req, res) => {
        entered.push(req.path);
        res.status(200).send("ui");
      }),
    );
    a.use((req, res) => res.status(404).send(`next: ${req.path}`));
    return { a, entered };
  };

  it("hands the paths under its prefix to the handler", async () => {
    const { a, entered } = app();
    const res = await request(a).get("/emulator/ui/index.html");
    expect(res.status).toBe(200);
    expect(res.text).toBe("ui");
    expect(entered).toEqual(["/emulator/ui/index.html"]);
  });

  it("passes any other path on without entering the handler", async () => {
    const { a, entered } = app();
    const res = await request(a).post("/public/v1/query/whoami").send({});
    expect(res.status).toBe(404);
    expect(res.text).toBe("next: /public/v1/query/whoami");
    expect(entered).toEqual([]);
  });
});
