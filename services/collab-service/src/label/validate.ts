import { INVALID_COLOR_MESSAGE, isValidColor, normalizeColor } from "@quarry/gitlab";
import { badRequest } from "@quarry/grpc";

/** Longest title GitLab's Label model accepts. */
const TITLE_MAX = 255;

/** The attributes a label is saved with (title stripped, colour normalized), as GitLab's model holds them. */
export interface LabelAttributes {
  title: string;
  color: string;
  description: string | null;
}

/** `strip_attributes! :title` and `Gitlab::Color.of`: what GitLab stores for the given values. */
export const cleanTitle = (title: string): string => title.trim();
export const cleanColor = (color: string): string => normalizeColor(color);

/**
 * GitLab's Label validations, in its order (colour, then title): `{"message": {"color": [...],
 * "title": [...]}}` on the first failure set. `titleTaken` is the uniqueness check's answer.
 */
export function validateLabel(attrs: LabelAttributes, titleTaken: boolean): void {
  const errors: Record<string, string[]> = {};
  const color: string[] = [];
  if (attrs.color === "") color.push("can't be blank");
  else if (!isValidColor(attrs.color)) color.push(INVALID_COLOR_MESSAGE);
  if (color.length) errors.color = color;
  const title: string[] = [];
  if (attrs.title === "") title.push("can't be blank");
  else if (attrs.title.includes(",")) title.push("is invalid");
  if (titleTaken) title.push("has already been taken");
  if (attrs.title.length > TITLE_MAX) title.push(`is too long (maximum is ${TITLE_MAX} characters)`);
  if (title.length) errors.title = title;
  if (Object.keys(errors).length) throw badRequest(errors);
}
