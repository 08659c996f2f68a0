import type { Response } from "express";

/** The management envelope on success: message is the empty string; data is absent for create and delete. */
export function sendSuccess(response: Response, ...data: [] | [unknown]): void {
  response.json(data.length === 0 ? { success: true, message: "" } : { success: true, message: "", data: data[0] });
}
