import { redirect } from "next/navigation";
import { adminPage } from "@/lib/teams/page-guards";

export default async function AdminHome() {
  await adminPage("/admin");
  redirect("/admin/members");
}
