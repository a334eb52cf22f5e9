import { describe, expect, it } from "vitest";
import { csvCell, toCsv } from "./to-csv";

describe("CSV", () => {
  it("quotes commas, quotes and line breaks, and doubles inner quotes", () => {
    expect(csvCell('O\'Neil, "Bob"')).toBe('"O\'Neil, ""Bob"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell(" padded ")).toBe('" padded "');
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(null)).toBe("");
    expect(csvCell(0.01)).toBe("0.01");
  });

  it("defuses cells a spreadsheet would run as formulas, but not numbers", () => {
    expect(csvCell('=HYPERLINK("http://evil")')).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+1 555")).toBe("'+1 555");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(-12)).toBe("-12");
  });

  it("writes a header and rows with CRLF line ends, round-tripping through a parser", () => {
    const text = toCsv(
      ["name", "premium"],
      [
        ["Smith, Jo", 12.5],
        ['say "hi"', null],
      ],
    );
    expect(text).toBe('name,premium\r\n"Smith, Jo",12.5\r\n"say ""hi""",\r\n');
  });
});
