/**
 * The secure twin's validation rules (graphql-js `ValidationRule`s, run with the specified ones): a depth limit, an
 * alias limit and a limit on the fields one document selects, so deep, aliased and duplicated queries are refused
 * before anything executes. Fragments count where they are spread; a fragment cycle is refused by graphql-js itself.
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

const MAX_DEPTH = 8;
const MAX_ALIASES = 15;
const MAX_FIELDS = 100;

interface Count {
  depth: number;
  fields: number;
  aliases: number;
}

function measure(
  selectionSet: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  depth: number,
  seen: Set<string>,
  count: Count,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      count.fields += 1;
      if (selection.alias) count.aliases += 1;
      count.depth = Math.max(count.depth, depth + 1);
      if (selection.selectionSet) measure(selection.selectionSet, fragments, depth + 1, seen, count);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      measure(selection.selectionSet, fragments, depth, seen, count);
    } else {
      const fragment = fragments.get(selection.name.value);
      // A cycle is NoFragmentCyclesRule's to report; counting stops at the first repeat.
      if (!fragment || seen.has(fragment.name.value)) continue;
      measure(fragment.selectionSet, fragments, depth, new Set([...seen, fragment.name.value]), count);
    }
  }
}

export const costLimits: ValidationRule = (context: ValidationContext): ASTVisitor => ({
  OperationDefinition(node) {
    const fragments = new Map(
      context
        .getDocument()
        .definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    const count: Count = { depth: 0, fields: 0, aliases: 0 };
    measure(node.selectionSet, fragments, 0, new Set(), count);
    if (count.depth > MAX_DEPTH)
      context.reportError(
        new GraphQLError(`query depth ${count.depth} exceeds the limit of ${MAX_DEPTH}`, { nodes: node }),
      );
    if (count.aliases > MAX_ALIASES)
      context.reportError(
        new GraphQLError(`${count.aliases} aliases exceed the limit of ${MAX_ALIASES}`, { nodes: node }),
      );
    if (count.fields > MAX_FIELDS)
      context.reportError(
        new GraphQLError(`${count.fields} selected fields exceed the limit of ${MAX_FIELDS}`, { nodes: node }),
      );
  },
});
