// A chat's rename / pin / archive / delete as the page asks for them (PATCH or DELETE /api/chat/<id>):
// undefined when done, else the message to show (the field's error first).
export type ChatChange = { title?: string; pinned?: boolean; archived?: boolean };

export async function sendChatChange(chatId: string, method: "PATCH" | "DELETE", body?: ChatChange): Promise<string | undefined> {
  const res = await fetch(`/api/chat/${chatId}`, {
    method,
    headers: { "content-type": "application/json" },
    body: body ? JSON.stringify(body) : undefined,
  }).catch(() => undefined);
  if (res?.ok) return undefined;
  const json = (await res?.json().catch(() => ({}))) as { error?: { message?: string; fields?: Record<string, string> } } | undefined;
  return json?.error?.fields?.title ?? json?.error?.message ?? "Something went wrong. Try again.";
}
