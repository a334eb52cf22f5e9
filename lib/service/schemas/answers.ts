import { z } from "zod";
import { ANSWER_FIELD_TYPES } from "./enums-pull";
import { describeValue, reportProblem } from "./problems";
import { jsonObject, lenientArray, looseResource, num, openEnum, requiredId, text } from "./tolerant";

// Answers to the custom fields of the link flow (spec 2.5). A value is a scalar, or a list of
// uploaded files when the field is a FILE_UPLOAD.

export const fileUploadSchema = looseResource({
  file_id: requiredId,
  name: text,
  /** Bytes. */
  size: num,
  /** MIME type. */
  type: text,
  download_url: text,
});
export type FileUpload = z.output<typeof fileUploadSchema>;

const fileUploads = lenientArray(fileUploadSchema, "file upload");

const answerValue = z.transform((value: unknown): string | number | boolean | FileUpload[] | null => {
  if (value === undefined || value === null) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) return fileUploads.parse(value);
  reportProblem(
    "wrong_type",
    `expected a string, number, boolean or list of files, got ${describeValue(value)}`,
    value,
  );
  return null;
});

export const answerFieldSchema = looseResource({
  consumer_flow_section_field_id: requiredId,
  /** As displayed to the consumer. */
  label: text,
  /** Validation rules and display options; their shape varies with the field type. */
  meta: jsonObject,
  type: openEnum(ANSWER_FIELD_TYPES, "answer field type"),
  value: answerValue,
});
export type AnswerField = z.output<typeof answerFieldSchema>;

export const answerSectionSchema = looseResource({
  consumer_flow_section_id: requiredId,
  fields: lenientArray(answerFieldSchema, "answer field"),
});
export type AnswerSection = z.output<typeof answerSectionSchema>;
