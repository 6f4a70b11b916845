import { redirect } from "next/navigation";
import { adminPage } from "@/app/_server/page-guards";

export default async function AdminHome() {
  await adminPage("/admin");
  redirect("/admin/members");
}
