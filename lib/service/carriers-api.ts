import "server-only";
import { z } from "zod";
import { serviceRequest, type ServiceConfig } from "./client";
import { readAnswer } from "./read-answer";
import { carrierListResponseSchema, carrierResponseSchema, type Carrier } from "./schemas";

// The carriers a consumer can link, with their login field placeholders. Public: no credentials.

const listCarriersSchema = z.object({
  products: z
    .array(z.enum(["personal", "commercial"]))
    .min(1)
    .optional(),
  public_alias: z.string().min(1).max(200).optional(),
});

export async function listCarriers(
  config: ServiceConfig,
  params: z.input<typeof listCarriersSchema> = {},
): Promise<Carrier[]> {
  const parsed = listCarriersSchema.parse(params);
  const query = { products: parsed.products?.join(","), public_alias: parsed.public_alias };
  const response = await serviceRequest(config, {
    method: "GET",
    path: "/carriers",
    teamScoped: false,
    idempotent: true,
    query,
    auth: { kind: "none" },
  });
  return readAnswer(carrierListResponseSchema, response, "GET /carriers").value;
}

export async function getCarrier(config: ServiceConfig, carrierId: string): Promise<Carrier> {
  const id = z.string().min(1).max(200).parse(carrierId);
  const response = await serviceRequest(config, {
    method: "GET",
    path: `/carriers/${encodeURIComponent(id)}`,
    teamScoped: false,
    idempotent: true,
    auth: { kind: "none" },
  });
  return readAnswer(carrierResponseSchema, response, "GET /carriers/:id").value;
}
