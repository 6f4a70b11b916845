// A chat's rename / pin / archive / delete as the page asks for them (PATCH or DELETE /api/chat/<id>):
// undefined when done, else the message to show (the field's error first).
import { ApiError, fetchJson } from "./fetch-json";

export type ChatChange = { title?: string; pinned?: boolean; archived?: boolean };

export async function sendChatChange(chatId: string, method: "PATCH" | "DELETE", body?: ChatChange): Promise<string | undefined> {
  try {
    await fetchJson(`/api/chat/${chatId}`, { method, body });
    return undefined;
  } catch (err) {
    return err instanceof ApiError && err.fromServer ? (err.fields?.title ?? err.message) : "Something went wrong. Try again.";
  }
}
