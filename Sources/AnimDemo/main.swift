print("AnimDemo")
