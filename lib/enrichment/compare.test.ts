import { describe, expect, it } from "vitest";
import { compareProperty, type ComparableProperty } from "./compare";

// The carrier's home beside public records: agreement, differences pointed out in words, and
// "unknown" (never a difference) wherever either side lacks the value or holds an odd one.

const NOW = new Date("2026-06-15T00:00:00Z");
const line = (carrier: ComparableProperty | null, records: ComparableProperty | null, field: string) => {
  const found = compareProperty(carrier, records, NOW).lines.find((l) => l.field === field);
  if (!found) throw new Error(`no line for ${field}`);
  return found;
};

const home: ComparableProperty = {
  year_built: 1987,
  square_ft: 2140,
  construction_type: "FRAME",
  roof_cover: "COMPOSITION_SHINGLE",
  roof_shape: "GABLE",
};

describe("comparing a home with public records", () => {
  it("says both agree when every value is the same", () => {
    const result = compareProperty(home, { ...home }, NOW);
    expect(result.differences).toBe(0);
    expect(result.lines.map((l) => [l.field, l.verdict])).toEqual([
      ["year_built", "same"],
      ["square_ft", "same"],
      ["construction_type", "same"],
      ["roof_cover", "same"],
      ["roof_shape", "same"],
    ]);
    expect(result.lines[0]?.sentence).toBe("Year built: both say 1987.");
    expect(result.lines[1]?.sentence).toBe("Size: both say 2,140 sq ft.");
  });

  it("points out each difference in words, with by how much", () => {
    const result = compareProperty(
      home,
      { year_built: 1992, square_ft: 2400, construction_type: "MASONRY", roof_cover: "METAL", roof_shape: "FLAT" },
      NOW,
    );
    expect(result.differences).toBe(5);
    const sentences = result.lines.map((l) => l.sentence);
    expect(sentences).toEqual([
      "Year built differs: the carrier has 1987, public records say 1992 (5 years later).",
      "Size differs: the carrier has 2,140 sq ft, public records say 2,400 sq ft (260 sq ft more, 12%).",
      "Construction differs: the carrier has frame, public records say masonry.",
      "Roof covering differs: the carrier has composition shingle, public records say metal.",
      "Roof shape differs: the carrier has gable, public records say flat.",
    ]);
    expect(line(home, { square_ft: 2000 }, "square_ft").sentence).toContain("140 sq ft less, 7%");
    expect(line(home, { year_built: 1986 }, "year_built").sentence).toContain("(1 year earlier)");
  });

  it("says unknown, never a difference, when either side lacks the value", () => {
    const carrierless = compareProperty(null, home, NOW);
    expect(carrierless.differences).toBe(0);
    expect(carrierless.lines.every((l) => l.verdict === "unknown" && l.carrier === "unknown")).toBe(true);
    expect(carrierless.lines[0]?.sentence).toBe(
      "Year built: unknown (the carrier does not give it; public records say 1987).",
    );
    const recordless = line(home, {}, "construction_type");
    expect(recordless).toMatchObject({ verdict: "unknown", records: "unknown", carrier: "frame" });
    expect(recordless.sentence).toBe("Construction: unknown (public records do not give it; the carrier has frame).");
    expect(line({}, {}, "roof_cover").sentence).toBe(
      "Roof covering: unknown (neither the carrier nor public records give it).",
    );
  });

  it("reads values that say 'unknown', odd numbers and wrong types as unknown", () => {
    const odd: ComparableProperty = {
      year_built: 0,
      square_ft: -5,
      construction_type: "TYPE_UNKNOWN",
      roof_cover: "UNKNOWN_OR_NOT_PROVIDED",
      roof_shape: "",
    };
    expect(compareProperty(home, odd, NOW).lines.map((l) => l.verdict)).toEqual(Array(5).fill("unknown"));
    const wrongTypes: ComparableProperty = {
      year_built: "nineteen eighty",
      square_ft: 2140.5,
      construction_type: 7,
      roof_cover: { value: "METAL" },
      roof_shape: null,
    };
    expect(compareProperty(home, wrongTypes, NOW).lines.map((l) => l.verdict)).toEqual(Array(5).fill("unknown"));
    // A year in the future, or before any house standing, is a data error, not a year.
    expect(line(home, { year_built: 2090 }, "year_built").verdict).toBe("unknown");
    expect(line(home, { year_built: 1200 }, "year_built").verdict).toBe("unknown");
    // A digit string is a number as written.
    expect(line(home, { year_built: "1987", square_ft: " 2140 " }, "year_built").verdict).toBe("same");
    expect(line(home, { square_ft: " 2140 " }, "square_ft").verdict).toBe("same");
    expect(line(home, { roof_cover: "NP" }, "roof_cover").verdict).toBe("unknown");
  });

  it("does not call two names of the same build a difference", () => {
    // Frame and wood frame, stucco over frame: the same kind of house, described differently.
    for (const [carrier, records] of [
      ["FRAME", "WOOD_FRAME"],
      ["WOOD_FRAME", "FRAME_STUCCO"],
      ["BRICK", "BRICK_FRAME"],
      ["MASONRY", "CONCRETE_BLOCK"],
      ["CUSTOM", "FRAME"],
      ["STUCCO", "BRICK"],
    ] as const) {
      const result = line({ construction_type: carrier }, { construction_type: records }, "construction_type");
      expect(result.verdict, `${carrier} / ${records}`).toBe("similar");
      expect(result.sentence).toContain("described differently");
    }
    for (const [carrier, records] of [
      ["COMPOSITION_SHINGLE", "ASPHALT"],
      ["HEAVY_COMPOSITION_SHINGLE", "AVERAGE_COMPOSITION_SHINGLE"],
      ["SHINGLE", "WOOD_SHINGLE"],
      ["CLAY_TILE", "TILE"],
      ["SLATE", "SLATE_TILE"],
    ] as const)
      expect(line({ roof_cover: carrier }, { roof_cover: records }, "roof_cover").verdict, `${carrier}`).toBe(
        "similar",
      );
    for (const [carrier, records] of [
      ["GABLE", "GABLE_HIP"],
      ["PITCHED", "HIP"],
      ["COMPLEX_CUSTOM", "GABLE"],
    ] as const)
      expect(line({ roof_shape: carrier }, { roof_shape: records }, "roof_shape").verdict, carrier).toBe("similar");
  });

  it("calls a difference only between materials that cannot be the same", () => {
    for (const [carrier, records] of [
      ["WOOD_FRAME", "BRICK"],
      ["FRAME", "STEEL"],
      ["LOG", "CONCRETE_MASONRY"],
    ] as const)
      expect(line({ construction_type: carrier }, { construction_type: records }, "construction_type").verdict).toBe(
        "differs",
      );
    for (const [carrier, records] of [
      ["COMPOSITION_SHINGLE", "WOOD_SHINGLE"],
      ["WOOD_SHAKE_SHINGLE", "CLAY_TILE"],
      ["ASPHALT", "METAL"],
      ["SLATE", "COMPOSITION_SHINGLE"],
    ] as const)
      expect(line({ roof_cover: carrier }, { roof_cover: records }, "roof_cover").verdict, carrier).toBe("differs");
    expect(line({ roof_shape: "GABLE" }, { roof_shape: "HIP" }, "roof_shape").verdict).toBe("differs");
    expect(line({ roof_shape: "PITCHED" }, { roof_shape: "FLAT" }, "roof_shape").verdict).toBe("differs");
  });

  it("reads a carrier's words as the codes they spell, and keeps values it does not know as written", () => {
    expect(
      line({ construction_type: "Wood Frame" }, { construction_type: "WOOD_FRAME" }, "construction_type"),
    ).toMatchObject({ verdict: "same", carrier: "Wood Frame", records: "wood frame" });
    // A value outside the spec's list is shown, and never claimed to differ.
    const strange = line({ roof_cover: "SOLAR_TILE_X" }, { roof_cover: "METAL" }, "roof_cover");
    expect(strange.verdict).toBe("similar");
    expect(strange.carrier).toBe("solar tile x");
  });
});
