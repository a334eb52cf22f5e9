"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formAction } from "@/lib/auth/action-guard";
import { getJob } from "@/lib/jobs/catalog";
import { sendJob } from "@/lib/jobs/start";
import type { FormState } from "@/lib/core/form-state";

// The jobs page's one write, for admins: a run of a catalog job now, queued for the runner.

export const runJobNowAction = formAction(
  "jobs:manage",
  z.object({ name: z.string().min(1, "Choose a job.") }),
  async ({ input }): Promise<FormState> => {
    const job = getJob(input.name);
    if (!job) return { status: "error", code: "INVALID", message: "There is no such job." };
    const id = await sendJob(job.name);
    revalidatePath("/admin/jobs");
    return id
      ? { status: "done", message: `${job.title}: a run is queued; it starts within seconds.` }
      : { status: "done", message: `${job.title}: a run is already waiting.` };
  },
);
