// Package fakeheap is fake managed memory for the C unit tests of tables
// keyed by object address (cworkitems, cgcevents): objects are words whose
// first word is their class (MethodTable), as those tables read them. It
// owns nothing else, and must not be used outside tests.
package fakeheap
