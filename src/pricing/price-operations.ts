import type { components } from "../../generated/types/management.js";
import { recordAudit } from "../audit/record-audit.js";
import { assertAdministrator } from "../channels/assert-administrator.js";
import { InvalidRequestError, NotFoundError, PermissionError } from "../errors/gateway-error.js";
import type { GatewayContext } from "../gateway-context.js";
import {
  type BillingGroupRecord,
  deleteApiBillingGroup,
  findBillingGroup,
  insertApiBillingGroup,
  updateApiBillingGroup,
} from "../store/pricing/billing-group-queries.js";
import {
  deleteApiModelPrice,
  findModelPriceRow,
  type ModelPriceRecord,
  upsertModelPrice,
} from "../store/pricing/model-price-queries.js";
import type { UserRecord } from "../store/users/user-record.js";
import type { PriceFields } from "./price-fields.js";
import { pricingMessages } from "./pricing-messages.js";

type PricingContext = Pick<GatewayContext, "database" | "now" | "priceCatalog" | "priceChanges">;
type ModelPriceEntry = components["schemas"]["ModelPriceEntry"];
type GroupView = components["schemas"]["Group"];
type CreateGroupRequest = components["schemas"]["CreateGroupRequest"];
type UpdateGroupRequest = components["schemas"]["UpdateGroupRequest"];

export function toModelPriceEntry(record: ModelPriceRecord): ModelPriceEntry {
  return { model: record.model, source: record.source, price: record.price, updated_time: record.updatedTime };
}

export function toGroupView(record: BillingGroupRecord): GroupView {
  return {
    name: record.name,
    ratio: record.ratio,
    description: record.description,
    selectable: record.selectable,
    source: record.source,
    updated_time: record.updatedTime,
  };
}

/** This instance reads the change before answering; the others when the bus tells them (at once with Redis). */
async function applyChange(context: PricingContext): Promise<void> {
  await context.priceCatalog.reload();
  await context.priceChanges.publish();
}

/** PUT /api/pricing/{model}: an administrator creates or replaces a price; the file's prices are read-only here. */
export async function setModelPrice(
  context: PricingContext,
  actor: UserRecord,
  model: string,
  price: PriceFields,
): Promise<ModelPriceEntry> {
  assertAdministrator(actor);
  const before = await findModelPriceRow(context.database.db, model);
  if (before?.source === "config") throw new PermissionError(pricingMessages.priceFromConfig(model));
  const stored = await upsertModelPrice(
    context.database.db,
    { model, source: "api", price, updatedTime: context.now() },
    { onlySource: "api" },
  );
  // The file's sync took the name between the read and the write.
  if (!stored) throw new PermissionError(pricingMessages.priceFromConfig(model));
  await applyChange(context);
  const after = toModelPriceEntry(stored);
  await recordAudit(context, actor, {
    action: before ? "price.update" : "price.create",
    target: `price:${model}`,
    ...(before ? { before: toModelPriceEntry(before) } : {}),
    after,
  });
  return after;
}

/** DELETE /api/pricing/{model}: the model is then unpriced (refused unless unpriced models are allowed). */
export async function deleteModelPrice(context: PricingContext, actor: UserRecord, model: string): Promise<void> {
  assertAdministrator(actor);
  const before = await findModelPriceRow(context.database.db, model);
  if (!before) throw new NotFoundError(pricingMessages.noPrice(model));
  if (before.source === "config") throw new PermissionError(pricingMessages.priceFromConfig(model));
  if (!(await deleteApiModelPrice(context.database.db, model))) throw new NotFoundError(pricingMessages.noPrice(model));
  await applyChange(context);
  await recordAudit(context, actor, {
    action: "price.delete",
    target: `price:${model}`,
    before: toModelPriceEntry(before),
  });
}

/** POST /api/group: a new group, after the existing ones in `auto`'s order (unless the file lists that order). */
export async function createGroup(
  context: PricingContext,
  actor: UserRecord,
  request: CreateGroupRequest,
): Promise<GroupView> {
  assertAdministrator(actor);
  if (request.name === "auto") throw new InvalidRequestError(pricingMessages.autoReserved, { param: "name" });
  const stored = await insertApiBillingGroup(context.database.db, {
    name: request.name,
    ratio: request.ratio,
    description: request.description ?? "",
    selectable: request.selectable ?? false,
    updatedTime: context.now(),
  });
  if (!stored) throw new InvalidRequestError(pricingMessages.groupTaken(request.name), { param: "name" });
  await applyChange(context);
  const after = toGroupView(stored);
  await recordAudit(context, actor, { action: "group.create", target: `group:${stored.name}`, after });
  return after;
}

/** The group an administrator changes: 404 when absent, 403 when the configuration file holds it. */
async function findApiGroup(context: PricingContext, name: string): Promise<BillingGroupRecord> {
  const group = await findBillingGroup(context.database.db, name);
  if (!group) throw new NotFoundError(pricingMessages.noGroup(name));
  if (group.source === "config") throw new PermissionError(pricingMessages.groupFromConfig(name));
  return group;
}

/** PUT /api/group/{name}: ratio, description, who may pick it. */
export async function updateGroup(
  context: PricingContext,
  actor: UserRecord,
  name: string,
  request: UpdateGroupRequest,
): Promise<GroupView> {
  assertAdministrator(actor);
  const before = await findApiGroup(context, name);
  const stored = await updateApiBillingGroup(context.database.db, name, request, context.now());
  if (!stored) throw new NotFoundError(pricingMessages.noGroup(name));
  await applyChange(context);
  const after = toGroupView(stored);
  await recordAudit(context, actor, {
    action: "group.update",
    target: `group:${name}`,
    before: toGroupView(before),
    after,
  });
  return after;
}

/** DELETE /api/group/{name}: tokens that carry it then stop routing with a 403 naming their owner's groups. */
export async function deleteGroup(context: PricingContext, actor: UserRecord, name: string): Promise<void> {
  assertAdministrator(actor);
  const before = await findApiGroup(context, name);
  if (!(await deleteApiBillingGroup(context.database.db, name))) throw new NotFoundError(pricingMessages.noGroup(name));
  await applyChange(context);
  await recordAudit(context, actor, { action: "group.delete", target: `group:${name}`, before: toGroupView(before) });
}
