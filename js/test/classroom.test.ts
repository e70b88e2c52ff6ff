// A classroom seat's view (RemoteTable marks it `classroom`): the server deals on and keeps no
// reviews or take-backs, so the table offers none; Next deal shows the deal the server dealt,
// and after the last deal the scoreboard says the match is over with no Play again.
import { describe, expect, test } from "vitest";
import type { Scoreboard } from "../src/types";
import { button, makeView, mountedTable } from "./helpers";

const table = mountedTable();

function board(over: Partial<Scoreboard> = {}): Scoreboard {
  return {
    winner: 0,
    rummy: false,
    void: false,
    bonus: 0,
    penalties: [0, 12],
    deal: 1,
    deals: 2,
    totals: [0, 12],
    match_over: false,
    outcome: "You went out.",
    standing: null,
    ...over,
  };
}

const names = () => [...table.el.querySelectorAll("button[data-rw-act]")].map((b) => b.getAttribute("data-rw-act"));

describe("a classroom seat", () => {
  test("a finished deal with more to come: Next deal only, no Review or Take back", () => {
    const model = table.mount({ view: makeView({ phase: "over", scoreboard: board(), take_back: false, classroom: true }) });
    expect(names()).not.toContain("review");
    expect(names()).not.toContain("takeback");
    expect(names()).not.toContain("again");
    button(table.el, "Next deal").click();
    expect(model.sent).toEqual([{ type: "next_deal", rev: 3 }]);
  });

  test("the match over: the scoreboard says so, and no Play again", () => {
    const standing = "The match is over: you win with the fewest penalty points.";
    const last = board({ deal: 2, match_over: true, totals: [5, 30], standing });
    table.mount({ view: makeView({ phase: "over", scoreboard: last, classroom: true }) });
    for (const act of ["review", "takeback", "again", "next"]) expect(names()).not.toContain(act);
    expect(table.el.textContent).toContain(standing);
  });

  test("during a deal: no Take back even when the view has one", () => {
    table.mount({ view: makeView({ phase: "play", take_back: true, classroom: true }) });
    expect(names()).not.toContain("takeback");
  });

  test("a local table at the same moments keeps Review, Play again and Take back", () => {
    table.mount({ view: makeView({ phase: "over", scoreboard: board({ match_over: true }) }) });
    expect(names()).toEqual(expect.arrayContaining(["review", "again"]));
    table.unmount();
    table.mount({ view: makeView({ phase: "play", take_back: true }) });
    expect(names()).toContain("takeback");
  });
});
