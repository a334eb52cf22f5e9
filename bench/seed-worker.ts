// A seeding worker thread (bench/seed.ts): projects the chunks it is sent and answers each as
// COPY text, so the parsing and hashing of a big book use every core.
import { parentPort } from "node:worker_threads";
import { installSealedJsonCodec } from "@/lib/security/sealed-json-codec";
import { chunkCopy, TABLES, type ChunkSpec } from "./seed";

// A thread of its own has its own modules: the sealed columns need the key ring here too.
installSealedJsonCodec();

parentPort?.on("message", (spec: ChunkSpec) => {
  try {
    const copy = chunkCopy({ ...spec, now: new Date(spec.now) });
    const buffers = TABLES.map((table) => copy[table].buffer as ArrayBuffer);
    parentPort?.postMessage({ chunk: spec.chunk, copy }, buffers);
  } catch (error) {
    parentPort?.postMessage({ chunk: spec.chunk, error: error instanceof Error ? error.stack : String(error) });
  }
});
