// Package typerender renders the common .NET types by their meaning:
// System.Decimal as 99.95, DateTime in ISO 8601, Guid in its canonical form,
// List<T> and Dictionary<K, V> as their elements, and so on.
//
// It owns three decisions: how a known class's captured fields become text
// and typed sub-attributes (Renderer, a values.TypeRenderer); which array
// field of a collection is used only up to a count field (Bounds), so that
// the profiler's value writer copies only the live part of it; and which
// collections keep their elements in nodes the writer walks (a tree's
// root, an array of hash chains: Bounds with a Walk) and which fields of
// their node classes link the nodes (NodeLinks).
// All go by the class's name and its fields' names as the runtime's
// layout gives them (they differ between .NET versions: List<T>._items,
// Dictionary's _entries, HashSet's _slots on 3.1 and _entries on 8...);
// a class whose fields are not the expected ones is left to the generic
// rendering. It must not call the runtime, use cgo or know field offsets.
package typerender
