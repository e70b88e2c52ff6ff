// Card pictures as inline SVG, the design written down in docs/display.md (the same paths and
// colours as the static display). Ink uses currentColor, so the four-colour deck is only CSS.
// test/svg.test.ts checks every path here against docs/display.md.

const NS = "http://www.w3.org/2000/svg";

export const SUIT_PATHS: Record<string, string> = {
  "S": "M50 6C50 6 8 36 8 60C8 74 19 82 30 82C39 82 45 77 48 71C47 81 43 89 36 94L64 94C57 89 53 81 52 71C55 77 61 82 70 82C81 82 92 74 92 60C92 36 50 6 50 6Z",
  "H": "M50 92C50 92 6 62 6 34C6 18 18 8 31 8C40 8 47 13 50 21C53 13 60 8 69 8C82 8 94 18 94 34C94 62 50 92 50 92Z",
  "D": "M50 4L88 50L50 96L12 50Z",
  "C": "M50 9A19 19 0 1 1 50 47A19 19 0 1 1 50 9ZM28 41A19 19 0 1 1 28 79A19 19 0 1 1 28 41ZM72 41A19 19 0 1 1 72 79A19 19 0 1 1 72 41ZM50 28L28 60L72 60ZM46 56C46 76 42 86 34 94L66 94C58 86 54 76 54 56Z"
};

/** Rank glyphs, stroked, 11 units high: [width, path]. */
export const RANK_PATHS: Record<string, [number, string]> = {
  "A": [
    8,
    "M0.3 11L4 0L7.7 11M1.6 7.2H6.4"
  ],
  "2": [
    8,
    "M0.7 2.9C0.9 1.1 2.3 0 4 0C5.9 0 7.3 1.2 7.3 3C7.3 4.8 6.1 5.9 4.3 7.3L0.6 11H7.6"
  ],
  "3": [
    8,
    "M0.7 1.4C1.4 0.5 2.6 0 3.9 0C5.9 0 7.2 1.1 7.2 2.8C7.2 4.4 5.9 5.4 3.7 5.4C6.1 5.4 7.5 6.5 7.5 8.2C7.5 10 6 11 4 11C2.4 11 1.1 10.4 0.4 9.5"
  ],
  "4": [
    8,
    "M5.8 11V0L0.3 7.9H7.8"
  ],
  "5": [
    8,
    "M7 0H1.5L1 5C1.8 4.5 2.8 4.2 3.9 4.2C6.1 4.2 7.5 5.5 7.5 7.6C7.5 9.7 6 11 3.9 11C2.3 11 1.1 10.4 0.4 9.5"
  ],
  "6": [
    8,
    "M6.9 1C6.3 0.4 5.3 0 4.3 0C1.9 0 0.5 2.4 0.5 6.1C0.5 9.3 1.9 11 4.1 11C6.2 11 7.6 9.6 7.6 7.5C7.6 5.4 6.2 4.1 4.2 4.1C2.5 4.1 1.1 5 0.6 6.4"
  ],
  "7": [
    8,
    "M0.4 0H7.6L3.1 11"
  ],
  "8": [
    8,
    "M4 5.2C2.2 5.2 1 4.2 1 2.6C1 1 2.2 0 4 0C5.8 0 7 1 7 2.6C7 4.2 5.8 5.2 4 5.2C1.9 5.2 0.5 6.3 0.5 8.1C0.5 9.9 2 11 4 11C6 11 7.5 9.9 7.5 8.1C7.5 6.3 6.1 5.2 4 5.2Z"
  ],
  "9": [
    8,
    "M1.1 10C1.7 10.6 2.7 11 3.7 11C6.1 11 7.5 8.6 7.5 4.9C7.5 1.7 6.1 0 3.9 0C1.8 0 0.4 1.4 0.4 3.5C0.4 5.6 1.8 6.9 3.8 6.9C5.5 6.9 6.9 6 7.4 4.6"
  ],
  "10": [
    12,
    "M0.3 2.2L2.6 0V11M8.4 0C10.7 0 11.8 2.4 11.8 5.5C11.8 8.6 10.7 11 8.4 11C6.1 11 5 8.6 5 5.5C5 2.4 6.1 0 8.4 0Z"
  ],
  "J": [
    7,
    "M5.8 0V7.8C5.8 9.9 4.8 11 3.1 11C1.6 11 0.6 10.1 0.3 8.6"
  ],
  "Q": [
    8,
    "M4 0C6.4 0 7.6 2.4 7.6 5.4C7.6 8.5 6.4 10.8 4 10.8C1.6 10.8 0.4 8.5 0.4 5.4C0.4 2.4 1.6 0 4 0ZM4.6 8L7.6 11.4"
  ],
  "K": [
    8,
    "M0.9 0V11M7.4 0L0.9 7.1M3.1 4.8L7.6 11"
  ]
};


export const CARD_STROKE = "#8c8c8c";
export const BACK_FILL = "#1f4e8c";
export const EMPTY_STROKE = "#9e9e9e";

function el(name: string, attrs: Record<string, string | number>, ...children: Element[]): SVGElement {
  const node = document.createElementNS(NS, name) as SVGElement;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  node.append(...children);
  return node;
}

function svg(...children: Element[]): SVGElement {
  return el(
    "svg",
    { viewBox: "0 0 56 80", class: "rw-svg", "aria-hidden": "true", focusable: "false" },
    ...children,
  );
}

function frame(fill: string): SVGElement {
  return el("rect", { x: 0.5, y: 0.5, width: 55, height: 79, rx: 5, fill, stroke: CARD_STROKE, "stroke-width": 1 });
}

function suitShape(suit: string, size: number, cx: number, cy: number): SVGElement {
  return el("path", {
    d: SUIT_PATHS[suit] ?? "",
    fill: "currentColor",
    transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${size / 100})`,
  });
}

function index(rank: string, suit: string): Element[] {
  const [width, d] = RANK_PATHS[rank] ?? [8, ""];
  return [
    el("path", {
      d,
      fill: "none",
      stroke: "currentColor",
      "stroke-width": 2,
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
      transform: `translate(${10 - width / 2} 6)`,
    }),
    suitShape(suit, 10, 10, 26),
  ];
}

// The table is redrawn from the view after every change, with some twenty cards each time:
// each picture is built once and later copies are clones (far cheaper than rebuilding it).
const drawn = new Map<string, SVGElement>();

function cached(key: string, build: () => SVGElement): SVGElement {
  let picture = drawn.get(key);
  if (!picture) {
    picture = build();
    drawn.set(key, picture);
  }
  return picture.cloneNode(true) as SVGElement;
}

/** A card face: frame, top-left index, the same index turned, a large suit in the centre. */
export function faceSvg(rank: string, suit: string): SVGElement {
  return cached(`${rank}${suit}`, () => buildFace(rank, suit));
}

function buildFace(rank: string, suit: string): SVGElement {
  return svg(
    frame("#ffffff"),
    ...index(rank, suit),
    el("g", { transform: "rotate(180 28 40)" }, ...index(rank, suit)),
    suitShape(suit, 24, 28, 40),
  );
}

/** A face-down card: nothing in it depends on which card it is. */
export function backSvg(): SVGElement {
  return cached("back", buildBack);
}

function buildBack(): SVGElement {
  let lattice = "";
  for (const x of [10, 19, 28, 37, 46]) {
    for (let y = 10; y <= 70; y += 10) lattice += `M${x} ${y - 4}L${x + 3.5} ${y}L${x} ${y + 4}L${x - 3.5} ${y}Z`;
  }
  return svg(
    frame(BACK_FILL),
    el("rect", { x: 4, y: 4, width: 48, height: 72, rx: 3, fill: "none", stroke: "#ffffff", "stroke-width": 1.5 }),
    el("path", { d: lattice, fill: "#ffffff", "fill-opacity": 0.3 }),
  );
}

/** An empty place on the table (an empty pile). */
export function emptySvg(): SVGElement {
  return cached("empty", () =>
    svg(
      el("rect", {
        x: 1,
        y: 1,
        width: 54,
        height: 78,
        rx: 5,
        fill: "none",
        stroke: EMPTY_STROKE,
        "stroke-width": 1.5,
        "stroke-dasharray": "4 3",
      }),
    ),
  );
}
