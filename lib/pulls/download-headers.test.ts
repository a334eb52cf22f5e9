import { describe, expect, it } from "vitest";
import { baseContentType, downloadHeaders, safeFilename } from "./download-headers";

describe("download headers", () => {
  it("reduces hostile titles to a safe filename with the right extension", () => {
    expect(safeFilename(`Endorsement "A", <b>bold</b>, O'Brien's copy) Tj ET (\\`, "application/pdf")).toBe(
      "Endorsement A bold O Brien s copy) Tj ET (.pdf",
    );
    expect(safeFilename("Auto declarations page", "application/pdf")).toBe("Auto declarations page.pdf");
    expect(safeFilename("smith-declarations.pdf", "application/pdf")).toBe("smith-declarations.pdf");
    expect(safeFilename("Ibáñez ID card", "image/jpeg")).toBe("Ibanez ID card.jpg");
    expect(safeFilename('\r\n"', "application/pdf")).toBe("document.pdf");
    expect(safeFilename(null, "application/octet-stream", "upload")).toBe("upload");
    expect(safeFilename("x".repeat(500), "application/pdf")).toHaveLength(124);
  });

  it("reads the MIME type without parameters and refuses garbage", () => {
    expect(baseContentType("application/PDF; charset=binary")).toBe("application/pdf");
    expect(baseContentType(null)).toBe("application/octet-stream");
    expect(baseContentType("text/html\r\nx: y")).toBe("application/octet-stream");
  });

  it("opens PDFs and images inline, and makes anything else a download", () => {
    const pdf = downloadHeaders("application/pdf", "a.pdf", 10);
    expect(pdf.get("content-disposition")).toBe('inline; filename="a.pdf"');
    expect(pdf.get("content-type")).toBe("application/pdf");
    expect(pdf.get("content-length")).toBe("10");
    const html = downloadHeaders("text/html", "page", null);
    expect(html.get("content-disposition")).toBe('attachment; filename="page"');
    expect(html.get("content-type")).toBe("application/octet-stream");
    expect(html.get("x-content-type-options")).toBe("nosniff");
  });
});
