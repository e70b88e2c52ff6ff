// The move log speaks to the learner in the second person and names everyone else.
import { describe, expect, test } from "vitest";
import { logText, youSeat } from "../src/board";
import type { LogEvent, View } from "../src/types";

const names = ["You", "Aino"];
const draw = (player: number): LogEvent => ({ type: "draw", player, source: "stock" });

describe("log wording", () => {
  test("the learner's own moves read in the second person, in both languages", () => {
    expect(logText("en", names, draw(0), 0)).toBe("You drew from the stock.");
    expect(logText("fi", ["Sinä", "Aino"], draw(0), 0)).toBe("Nostit nostopakasta.");
    expect(logText("en", names, draw(1), 0)).toBe("Aino drew from the stock.");
    expect(logText("fi", ["Sinä", "Aino"], draw(1), 0)).toBe("Aino nosti nostopakasta.");
  });

  test("a replay names every player, the seat included", () => {
    const view = { mode: "replay", seat: 0 } as View;
    expect(youSeat(view)).toBe(-1);
    expect(logText("en", ["Ann", "Bo"], draw(0), youSeat(view))).toBe("Ann drew from the stock.");
  });

  test("the end of the deal congratulates the learner directly", () => {
    const end: LogEvent = { type: "end", winner: 0, rummy: true, void: false };
    expect(logText("en", names, end, 0)).toBe("You went Rummy!");
    expect(logText("fi", names, end, 0)).toBe("Teit Rummy-ulosmenon!");
  });
});
