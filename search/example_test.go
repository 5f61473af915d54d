package search_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/sezzlee/sezzlee/catalog"
	"github.com/sezzlee/sezzlee/search"
)

func ExampleSearcher_Search() {
	cat, err := catalog.Load(context.Background(), "testdata/shop.yaml", nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := search.New(cat, nil)
	if err != nil {
		log.Fatal(err)
	}
	res, _ := s.Search(context.Background(), search.Query{Text: "give back part of the money for an order", Limit: 2})
	for _, h := range res.Hits {
		fmt.Println(h.Method, h.Path, h.Name)
	}
	fmt.Println("definition included:", res.Tool != nil)
	// Output:
	// POST /orders/{orderId}/refunds refundOrder
	// POST /orders placeOrder
	// definition included: true
}

// A host binds its own ranker; when it fails, the built-in ranking answers,
// and the failure goes to the host's log, never to the agent.
func ExampleRankerFunc() {
	cat, err := catalog.Load(context.Background(), "testdata/shop.yaml", nil)
	if err != nil {
		log.Fatal(err)
	}
	embeddings := search.RankerFunc(func(ctx context.Context, q search.Query, tools []*catalog.Tool) ([]search.Hit, error) {
		return nil, errors.New("embedding service unreachable")
	})
	s, err := search.New(cat, &search.Options{
		Ranker:        embeddings,
		OnRankerError: func(err error) { fmt.Println("logged:", err) },
	})
	if err != nil {
		log.Fatal(err)
	}
	res, _ := s.Search(context.Background(), search.Query{Text: "delete a product", Limit: 1})
	fmt.Println(res.Hits[0].Name)
	// Output:
	// logged: embedding service unreachable
	// deleteProduct
}
